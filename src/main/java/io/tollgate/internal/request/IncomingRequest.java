package io.tollgate.internal.request;

/** A request being checked: its view plus the client address, resolved once and only if needed. */
public final class IncomingRequest {

    private final RequestView view;
    private final TrustedProxies proxies;
    private String clientAddress;

    public IncomingRequest(RequestView view, TrustedProxies proxies) {
        this.view = view;
        this.proxies = proxies;
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
}
