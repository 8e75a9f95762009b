"""The addresses other devices on the network (the players' and referees' phones) open to reach
this service, said at start-up. Found with the standard library's sockets only."""
from __future__ import annotations

import ipaddress
import socket

# Addresses no packet is sent to: connecting a UDP socket only asks the kernel which of this
# machine's addresses would carry traffic there (the one on the default route, the venue's Wi-Fi).
_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
_EVERY_ADDRESS = ("0.0.0.0", "", "::", "[::]")


def _usable(address: str) -> bool:
    """An address another device may reach: IPv4, not loopback, link-local nor unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other devices may reach, the default route's first."""
    found: list[str] = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:  # no route there (an offline machine, a network without that range)
            continue
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found += [str(info[4][0]) for info in infos]
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if _usable(a)]


def reachable_links(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """The http:// links others open for a service listening on host:port: every LAN address
    when it listens on all of them, the one address when it is a usable one, none on loopback."""
    if host in _EVERY_ADDRESS:
        hosts = lan_addresses() if addresses is None else addresses
    else:
        hosts = [host] if _usable(host) else []
    return [f"http://{h}:{port}/" for h in hosts]
