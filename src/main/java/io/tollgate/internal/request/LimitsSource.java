package io.tollgate.internal.request;

/**
 * Where a rule reads a request's own limits ({@code limits-from}): a verified JWT claim ({@code jwt:<claim>}), or a
 * header set by a gateway in front of the application ({@code header:<name>}), believed only on a request whose TCP
 * peer is one of the {@link TrustedGateways}: from anyone else (a client, or a proxy that passes the client's headers
 * through) it is ignored, so a client cannot name its own limits.
 */
public final class LimitsSource {

    private final Source source;

    private LimitsSource(Source source) {
        this.source = source;
    }

    /**
     * @param text {@code jwt:<claim>} or {@code header:<name>}
     * @return the source
     * @throws IllegalArgumentException with the reason, if {@code text} is neither
     */
    public static LimitsSource parse(String text) {
        Source source = Source.parse(text, Source.Kind.JWT, Source.Kind.HEADER);
        if (source == null) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a source of limits; use jwt:<claim> (a verified claim) "
                    + "or header:<name> (set by a trusted gateway)");
        }
        return new LimitsSource(source);
    }

    /** @return whether the source is a header, which only trusted gateways may set */
    public boolean isHeader() {
        return source.kind() == Source.Kind.HEADER;
    }

    /**
     * @param request  the HTTP request, or {@code null} outside one
     * @param gateways whose header is believed
     * @return the limits text the request carries, or {@code null} if it has none (a header from another peer is none)
     */
    public String text(IncomingRequest request, TrustedGateways gateways) {
        if (request == null || isHeader() && !gateways.sent(request)) {
            return null;
        }
        return source.value(request.view());
    }

    @Override
    public String toString() {
        return source.toString();
    }
}
