package io.tollgate.internal.request;

/** A request being checked: its view plus the client address, resolved once and only if needed. */
public final class IncomingRequest {

    /** Leading bits of an IPv6 address that name one client, unless configured: a /64, what one site gets. */
    public static final int DEFAULT_IPV6_PREFIX = 64;

    private final RequestView view;
    private final TrustedProxies proxies;
    private final int ipv6Prefix;
    private String clientAddress;

    public IncomingRequest(RequestView view, TrustedProxies proxies) {
        this(view, proxies, DEFAULT_IPV6_PREFIX);
    }

    /** @param ipv6Prefix leading bits of an IPv6 client address that make its key (1 to 128) */
    public IncomingRequest(RequestView view, TrustedProxies proxies, int ipv6Prefix) {
        this.view = view;
        this.proxies = proxies;
        this.ipv6Prefix = ipv6Prefix;
    }

    public RequestView view() {
        return view;
    }

    /** @return the client's address, honouring forwarding headers only from trusted proxies */
    public String clientAddress() {
        if (clientAddress == null) {
            clientAddress = ClientAddress.of(view, proxies);
        }
        return clientAddress;
    }

    /**
     * @return the client's identity for {@code key=ip}: its IPv4 address, or its IPv6 network of the configured
     *         prefix (a client with a /64 would otherwise get a fresh bucket for every address it picks)
     */
    public String clientKey() {
        return IpAddresses.clientKey(clientAddress(), ipv6Prefix);
    }
}
