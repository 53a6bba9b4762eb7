package io.tollgate.internal.request;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The proxies whose {@code Forwarded} / {@code X-Forwarded-For} headers are believed: a list of
 * addresses and CIDR ranges, IPv4 or IPv6 ({@code 10.0.0.0/8, 127.0.0.1, fd00::/8}).
 */
public final class TrustedProxies {

    /** The header the trusted proxies append the client address to; only that one is read. */
    public enum Header {
        /** {@code X-Forwarded-For: client, proxy1} (nginx, HAProxy, cloud load balancers). */
        X_FORWARDED_FOR,
        /** RFC 7239 {@code Forwarded: for=client, for=proxy1}. */
        FORWARDED
    }

    /** Trusts nobody: the client address is always the TCP peer. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of(), "", Header.X_FORWARDED_FOR);

    private final List<AddressRange> ranges;
    private final String text;
    private final Header header;

    private TrustedProxies(List<AddressRange> ranges, String text, Header header) {
        this.ranges = ranges;
        this.text = text;
        this.header = header;
    }

    /**
     * @return these proxies, read from {@code header} instead. A client can write either header
     *         itself; reading only the one the proxies maintain keeps it from choosing its own key.
     */
    public TrustedProxies withHeader(Header header) {
        return ranges.isEmpty() ? this : new TrustedProxies(ranges, text, header);
    }

    /** @return the header the proxies write */
    public Header header() {
        return header;
    }

    /**
     * @param entries addresses or CIDR ranges
     * @return the list
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    public static TrustedProxies parse(List<String> entries) {
        List<AddressRange> ranges = new ArrayList<>();
        for (String raw : entries) {
            String entry = raw.trim();
            if (!entry.isEmpty()) {
                ranges.add(AddressRange.parse(entry));
            }
        }
        return ranges.isEmpty() ? NONE
                : new TrustedProxies(Collections.unmodifiableList(ranges), String.join(", ", entries), Header.X_FORWARDED_FOR);
    }

    /** @return whether the literal address {@code ip} is trusted */
    public boolean contains(String ip) {
        return !ranges.isEmpty() && AddressRange.anyContains(ranges, ip);
    }

    /** @return whether no proxy is trusted */
    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
