package io.tollgate.internal.telemetry;

import io.tollgate.Decision;

/** What a decision came to, as the attribute {@code tollgate.outcome} names it. */
enum Outcome {
    ALLOWED("allowed"),
    DENIED("denied"),
    SHADOW_DENIED("shadow-denied"),
    /** On spans only: the store did not answer, the rule's {@code on-store-failure} did. */
    STORE_FAILURE("store-failure");

    final String value;

    Outcome(String value) {
        this.value = value;
    }

    /** @return allowed, denied or shadow-denied, whoever decided (the counters count store failures apart) */
    static Outcome counted(Decision decision) {
        if (decision.shadowDenied()) {
            return SHADOW_DENIED;
        }
        return decision.allowed() ? ALLOWED : DENIED;
    }

    /** @return like {@link #counted}, but store-failure when the store did not answer */
    static Outcome traced(Decision decision) {
        return decision.storeUnavailable() ? STORE_FAILURE : counted(decision);
    }
}
