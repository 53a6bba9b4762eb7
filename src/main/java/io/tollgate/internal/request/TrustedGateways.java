package io.tollgate.internal.request;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The gateways whose limits header is believed ({@code limits-from=header:<name>}): addresses and CIDR ranges, IPv4
 * or IPv6. A request's TCP peer must be one of them; its forwarding headers are never consulted, since a proxy that
 * vouches for the client's address says nothing about who wrote the limits header. A list of its own, apart from
 * {@link TrustedProxies}: a load balancer trusted to name the client usually passes the client's headers through.
 */
public final class TrustedGateways {

    /** Believes nobody. */
    public static final TrustedGateways NONE = new TrustedGateways(List.of(), "");

    private final List<AddressRange> ranges;
    private final String text;

    private TrustedGateways(List<AddressRange> ranges, String text) {
        this.ranges = ranges;
        this.text = text;
    }

    /**
     * @param entries addresses or CIDR ranges
     * @return the list
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    public static TrustedGateways parse(List<String> entries) {
        List<AddressRange> ranges = new ArrayList<>();
        for (String raw : entries) {
            String entry = raw.trim();
            if (!entry.isEmpty()) {
                ranges.add(AddressRange.parse(entry));
            }
        }
        return ranges.isEmpty() ? NONE : new TrustedGateways(Collections.unmodifiableList(ranges), String.join(", ", entries));
    }

    /** @return whether {@code request} came straight from one of the gateways: its TCP peer is in the list */
    public boolean sent(IncomingRequest request) {
        String peer = request.view().remoteAddress();
        return peer != null && !ranges.isEmpty() && AddressRange.anyContains(ranges, peer);
    }

    /** @return whether no gateway is named */
    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
