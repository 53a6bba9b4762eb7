package io.tollgate.internal.runtime;

import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.IncomingRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * What Tollgate knows about one HTTP request: the request itself (for interceptors on beans called while
 * serving it), the binding the JAX-RS filter already charged (so the interceptor on that same method does not
 * charge again), and every check made (for the headers). It lives with the request: as a JAX-RS request
 * property, which a servlet container keeps as a request attribute of the same name.
 */
public final class RequestRecord {

    /** The name of the JAX-RS property and servlet request attribute that holds the record. */
    public static final String ATTRIBUTE = RequestRecord.class.getName();

    private final IncomingRequest request;
    private Binding charged;
    private List<RuleCheck> checks = List.of();
    /** Checks whose rules keep their charge or not by the response's status, to settle when it is known. */
    private List<Pending> pending = List.of();
    private boolean settled;
    /** Whether the JAX-RS filter made this record: its response passes JAX-RS's response filters, unless it failed. */
    private boolean jaxrs;

    public RequestRecord(IncomingRequest request) {
        this.request = request;
    }

    public IncomingRequest request() {
        return request;
    }

    /** Records that JAX-RS serves this request: its response filters settle it, unless an exception no mapper takes ends it. */
    public void servedByJaxrs() {
        this.jaxrs = true;
    }

    /** @return whether JAX-RS serves this request ({@link #servedByJaxrs()}) */
    public boolean isJaxrs() {
        return jaxrs;
    }

    /** Records that the filter charged the rules of {@code binding}, a resource method's, for this request. */
    public void chargedByFilter(Binding binding) {
        this.charged = binding;
    }

    /**
     * @param binding the binding of a call the interceptor sees
     * @return {@code true} once if it is the call of the resource method whose rules the filter already charged in
     *         this request ({@link Binding#isCallOf}); a call of another class's method of the same name, parameter
     *         types and rules (a service the resource calls) is charged
     */
    public boolean takeFilterCharge(Binding binding) {
        if (charged != null && charged.isCallOf(binding)) {
            charged = null;
            return true;
        }
        return false;
    }

    /** Adds {@code made} (a list the caller no longer changes) to the checks of this request. */
    public void record(List<RuleCheck> made) {
        if (checks.isEmpty()) {
            checks = made;
        } else if (!made.isEmpty()) {
            List<RuleCheck> all = new ArrayList<>(checks.size() + made.size());
            all.addAll(checks);
            all.addAll(made);
            checks = all;
        }
    }

    /** @return the checks made for this request so far */
    public List<RuleCheck> checks() {
        return checks;
    }

    /**
     * Keeps the checks of {@code made} whose rules keep their charge or not by the outcome, to settle when the
     * response's status is known.
     *
     * @param thrown what the limited method threw, or {@code null} (it returned, or the filter charged it)
     */
    public void settleAtEnd(List<RuleCheck> made, Throwable thrown) {
        for (RuleCheck check : made) {
            if (!check.rule().outcomes().isNone() && !settled) {
                if (pending.isEmpty()) {
                    pending = new ArrayList<>(2);
                }
                pending.add(new Pending(check, thrown));
            }
        }
    }

    /** @return the checks to settle now that the response's status is known; once, later calls get none */
    public List<Pending> takePending() {
        settled = true;
        List<Pending> taken = pending;
        pending = List.of();
        return taken;
    }

    /** Puts {@code settled} where {@code charged} was among the checks, so that the headers report the bucket after a refund. */
    public void replace(RuleCheck charged, RuleCheck settled) {
        List<RuleCheck> all = new ArrayList<>(checks);
        int at = all.indexOf(charged);
        if (at >= 0) {
            all.set(at, settled);
            checks = all;
        }
    }

    /** A check to settle at the request's end, and what its method threw ({@code null}: returned, or not known). */
    public record Pending(RuleCheck check, Throwable thrown) {
    }
}
