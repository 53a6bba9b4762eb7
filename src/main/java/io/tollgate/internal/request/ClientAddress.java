package io.tollgate.internal.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the client's address. The TCP peer, unless the peer is a trusted proxy: then the
 * forwarding chain of the header the proxies write ({@code X-Forwarded-For} by default, or
 * {@code Forwarded}; never both, or a client could pick its key through the other) is walked from
 * the right, past every trusted proxy, to the first address a trusted proxy saw. Entries to the
 * left of that, which the client could have written itself, are never used.
 */
public final class ClientAddress {

    /** Only the rightmost entries are examined, so a huge header costs nothing. */
    static final int MAX_HOPS = 32;
    private static final int MAX_TOKEN = 64;

    private ClientAddress() {
    }

    /** @return the client address for {@code request}, canonical where it is an IP address */
    public static String of(RequestView request, TrustedProxies proxies) {
        String peer = canonical(request.remoteAddress());
        if (proxies.isEmpty() || !proxies.contains(peer)) {
            return peer;
        }
        List<String> chain = proxies.header() == TrustedProxies.Header.FORWARDED ? forwarded(request) : xForwardedFor(request);
        String address = peer;
        for (int i = chain.size() - 1; i >= 0 && proxies.contains(address); i--) {
            address = canonical(chain.get(i));
        }
        return address;
    }

    private static String canonical(String address) {
        if (address == null) {
            return "";
        }
        byte[] bytes = IpAddresses.parse(address);
        if (bytes != null) {
            return IpAddresses.format(bytes);
        }
        return address.length() > MAX_TOKEN ? address.substring(0, MAX_TOKEN) : address;
    }

    private static List<String> xForwardedFor(RequestView request) {
        List<String> hops = new ArrayList<>();
        for (String header : request.headers("X-Forwarded-For")) {
            for (String hop : header.split(",")) {
                hops.add(stripPort(hop.trim()));
            }
        }
        return last(hops);
    }

    /** RFC 7239: {@code Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"}. */
    private static List<String> forwarded(RequestView request) {
        List<String> hops = new ArrayList<>();
        for (String header : request.headers("Forwarded")) {
            for (String element : header.split(",")) {
                String forValue = "";
                for (String pair : element.split(";")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("for")) {
                        forValue = pair.substring(eq + 1).trim();
                    }
                }
                if (forValue.isEmpty()) {
                    continue; // an element that names no client (only proto, host, by)
                }
                if (forValue.length() >= 2 && forValue.startsWith("\"") && forValue.endsWith("\"")) {
                    forValue = forValue.substring(1, forValue.length() - 1);
                }
                hops.add(stripPort(forValue));
            }
        }
        return last(hops);
    }

    private static String stripPort(String hop) {
        if (hop.startsWith("[")) {
            int close = hop.indexOf(']');
            return close > 0 ? hop.substring(1, close) : hop;
        }
        int colon = hop.indexOf(':');
        if (colon >= 0 && colon == hop.lastIndexOf(':')) {
            return hop.substring(0, colon); // IPv4 with a port; bare IPv6 has several colons
        }
        return hop;
    }

    private static List<String> last(List<String> hops) {
        return hops.size() <= MAX_HOPS ? hops : hops.subList(hops.size() - MAX_HOPS, hops.size());
    }
}
