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

    public RequestRecord(IncomingRequest request) {
        this.request = request;
    }

    public IncomingRequest request() {
        return request;
    }

    /** Records that the filter charged the rules of {@code binding} for this request. */
    public void chargedByFilter(Binding binding) {
        this.charged = binding;
    }

    /** @return {@code true} once if the filter already charged {@code binding} in this request */
    public boolean takeFilterCharge(Binding binding) {
        if (charged != null && charged.sameCall(binding)) {
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
}
