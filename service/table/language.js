// The pages' language machinery (the table page, the director's page, the public event page):
// each page keeps its own words and the key it stores the chosen language under, and gets from
// here the same choice of a first language, switch and lookup. It lives beside the table page's
// files (like reportform.js) so that the table page's offline copy holds it too.

// `words`: { en: {key: word}, ja: {...} }; English is the fallback of every other language.
export function languageOf(storeKey, words) {
  const known = Object.keys(words);
  let current = "en";
  return {
    // The language chosen here before, else the browser's first one the page has, else English.
    initialLanguage() {
      const saved = localStorage.getItem(storeKey);
      if (known.includes(saved)) return saved;
      const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
      for (const l of langs) {
        const base = String(l).toLowerCase().split("-")[0];
        if (known.includes(base)) return base;
      }
      return "en";
    },
    setLanguage(lang) {
      current = lang;
      localStorage.setItem(storeKey, lang);
      document.documentElement.lang = lang;
    },
    language() { return current; },
    // A key's word in the current language, else in English, else the key itself; `n`, when
    // given, stands where the word says {n}.
    t(key, n) {
      const word = (words[current] && words[current][key]) || words.en[key] || key;
      return n === undefined ? word : word.replace("{n}", String(n));
    },
    // The keys English has and Japanese lacks (the pages' tests check there are none).
    missingJapanese() { return Object.keys(words.en).filter((k) => !(k in words.ja)); },
    // A copy of a language's fixed words (a test checks the Japanese page shows no English one).
    words(lang) { return { ...words[lang] }; },
  };
}
