// Swagger UI at /docs, started from a file rather than an inline script, so the page's
// Content-Security-Policy allows scripts from the service itself only (docs/security.md,
// "Headers"). Its configuration is the JSON data block the page carries (never executed).
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("swagger-ui-config").textContent);
  config.dom_id = "#swagger-ui-container";
  window.ui = SwaggerUIBundle(config);
})();
