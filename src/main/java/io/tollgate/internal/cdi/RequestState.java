package io.tollgate.internal.cdi;

import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.IncomingRequest;
import jakarta.enterprise.context.RequestScoped;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * What Tollgate knows about the current HTTP request: the request itself (for interceptors on beans
 * called while serving it), the resource method the JAX-RS filter already charged (so the
 * interceptor on that same method does not charge again), and every check made (for the headers).
 */
@RequestScoped
public class RequestState {

    private IncomingRequest request;
    private Method charged;
    private final List<RuleCheck> checks = new ArrayList<>(2);

    /** Called by the JAX-RS filter when a request arrives. */
    public void begin(IncomingRequest request) {
        this.request = request;
    }

    /** @return the current HTTP request, or {@code null} if none passed Tollgate's filter */
    public IncomingRequest request() {
        return request;
    }

    /** Records that the filter charged {@code resourceMethod}'s rules for this request. */
    public void chargedByFilter(Method resourceMethod) {
        this.charged = resourceMethod;
    }

    /** @return {@code true} once if the filter already charged {@code method} in this request */
    public boolean takeFilterCharge(Method method) {
        if (charged != null && charged.equals(method)) {
            charged = null;
            return true;
        }
        return false;
    }

    public void record(List<RuleCheck> made) {
        checks.addAll(made);
    }

    /** @return the checks made for this request so far */
    public List<RuleCheck> checks() {
        return checks;
    }
}
