package io.tollgate.app;

/** The application's own failure: an upstream it depends on did not answer. */
public class UpstreamDown extends RuntimeException {

    public UpstreamDown(String message) {
        super(message);
    }
}
