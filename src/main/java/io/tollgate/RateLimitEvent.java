package io.tollgate;

import java.time.Instant;

/**
 * What Tollgate tells the application as CDI events: observe a type of this package that implements it
 * ({@link RateLimitDenied}, {@link RateLimitStoreFailed}, {@link RateLimitBanned}, {@link RateLimitRuleChanged},
 * {@link RateLimitReset}, {@link RateLimitBanLifted}) with
 * {@code @Observes} or {@code @ObservesAsync}, or this interface for all of them. Later versions may add event types:
 * code that switches over events keeps a default branch. Events name a client only by the hash of its key.
 *
 * <p>Synchronous observers run on the thread that decided, before the caller gets its answer (the
 * request's thread, for a request): keep them quick, or observe asynchronously. An observer that throws
 * is logged (at most one line per 10 s) and changes no answer. Events are fired only where the
 * application has an observer of their type (found once, at deployment).
 */
public interface RateLimitEvent {

    /** @return the name of the rule the event concerns */
    String rule();

    /** @return when Tollgate fired the event (this server's clock) */
    Instant time();
}
