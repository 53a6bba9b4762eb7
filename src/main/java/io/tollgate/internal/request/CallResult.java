package io.tollgate.internal.request;

/**
 * How a limited request or call ended, as far as it is known: the HTTP status of its response (0 where there is
 * none: a method called outside an HTTP request, or an HTTP request whose status is not known yet), and the
 * exception the limited method threw ({@code null} if it returned, or where it is not known).
 *
 * @param status the response's status, 100 to 599, or 0
 * @param thrown what the method threw, or {@code null}
 */
public record CallResult(int status, Throwable thrown) {

    /** @return an HTTP response's outcome */
    public static CallResult status(int status) {
        return new CallResult(status, null);
    }

    /** @return a method's outcome: it threw {@code thrown}, or returned ({@code null}) */
    public static CallResult method(Throwable thrown) {
        return new CallResult(0, thrown);
    }

    /** @return this outcome with the status of the response the call was made for */
    public CallResult withStatus(int responseStatus) {
        return new CallResult(responseStatus, thrown);
    }
}
