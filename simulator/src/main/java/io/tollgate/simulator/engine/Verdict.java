package io.tollgate.simulator.engine;

/**
 * What Tollgate answered one request.
 *
 * @param outcome      allowed, denied (429), denied by a rule in shadow mode (let through), or a bad cost (400)
 * @param rule         the rule that denied it, or refused its cost; {@code null} if allowed
 * @param retryAfter   the {@code Retry-After} a denial carries (jitter included), in seconds; 0 otherwise
 * @param tokensBefore whole tokens the charted rule's bucket held just before, or -1 if that rule did not apply
 * @param tokensAfter  whole tokens it held just after, or -1
 */
public record Verdict(Outcome outcome, String rule, long retryAfter, long tokensBefore, long tokensAfter) {

    /** How a request fared. */
    public enum Outcome {
        ALLOWED, DENIED, SHADOW_DENIED, BAD_COST;

        /** @return whether the request was (or, in shadow mode, would have been) refused for want of tokens */
        public boolean limited() {
            return this == DENIED || this == SHADOW_DENIED;
        }
    }
}
