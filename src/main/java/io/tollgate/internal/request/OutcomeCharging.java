package io.tollgate.internal.request;

/**
 * Which outcomes of a request or call keep its charge: a rule's {@code charge-on} (the tokens count only if the
 * outcome matches) and {@code refund-on} (they are given back if it matches). With both, a request is refunded
 * if {@code refund-on} matches, or else if {@code charge-on} does not. The request is always charged first, as
 * if neither were set; the refund comes after, once the outcome is known.
 */
public final class OutcomeCharging {

    /** Every charge stays: neither attribute is set. */
    public static final OutcomeCharging NONE = new OutcomeCharging(null, null);

    private final OutcomeSpec chargeOn;
    private final OutcomeSpec refundOn;

    private OutcomeCharging(OutcomeSpec chargeOn, OutcomeSpec refundOn) {
        this.chargeOn = chargeOn;
        this.refundOn = refundOn;
    }

    /** @param chargeOn the {@code charge-on} outcomes, or {@code null}; {@code refundOn} likewise */
    public static OutcomeCharging of(OutcomeSpec chargeOn, OutcomeSpec refundOn) {
        return chargeOn == null && refundOn == null ? NONE : new OutcomeCharging(chargeOn, refundOn);
    }

    /** @return whether neither attribute is set, so that every charge stays and no outcome is waited for */
    public boolean isNone() {
        return this == NONE;
    }

    /** @return whether a request or call that ended with {@code result} gets its tokens back */
    public boolean refunds(CallResult result) {
        if (refundOn != null && refundOn.matches(result)) {
            return true;
        }
        return chargeOn != null && !chargeOn.matches(result);
    }

    /** @return whether a condition asks for an HTTP status, which a method called for a request learns only at its end */
    public boolean asksStatus() {
        return (chargeOn != null && chargeOn.asksStatus()) || (refundOn != null && refundOn.asksStatus());
    }

    @Override
    public String toString() {
        return (chargeOn == null ? "" : " charge-on=" + chargeOn) + (refundOn == null ? "" : " refund-on=" + refundOn);
    }
}
