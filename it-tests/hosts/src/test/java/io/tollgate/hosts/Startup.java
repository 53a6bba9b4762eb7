package io.tollgate.hosts;

import java.time.Duration;

/**
 * How a server's start ended: its application started, or its deployment failed.
 *
 * @param started true if the application started (and the server is ready), false if its deployment failed
 * @param detail the server's message that told (for a failure, the error and the lines after it)
 * @param took from the start of the server's process to that message
 */
public record Startup(boolean started, String detail, Duration took) {

    /** @return this, if the application started; else an AssertionError with the server's message */
    public Startup requireStarted() {
        if (!started) {
            throw new AssertionError("the application did not start: " + detail);
        }
        return this;
    }

    /** @return this, if the deployment failed; else an AssertionError */
    public Startup requireFailed() {
        if (started) {
            throw new AssertionError("the application started, but it was expected to fail: " + detail);
        }
        return this;
    }
}
