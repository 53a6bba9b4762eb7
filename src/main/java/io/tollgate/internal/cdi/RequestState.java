package io.tollgate.internal.cdi;

import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.RequestView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * What Tollgate knows about the current HTTP request: the request itself (for interceptors on beans
 * called while serving it), the binding the JAX-RS filter already charged (so the interceptor on that same
 * method does not charge again), and every check made (for the headers). The JAX-RS filter hands the request
 * over; a request JAX-RS did not serve (a servlet, a JSF page) is read from the Servlet API when first needed.
 */
@RequestScoped
public class RequestState {

    @Inject
    TollgateExtension extension;

    private IncomingRequest request;
    private boolean looked;
    private Binding charged;
    private final List<RuleCheck> checks = new ArrayList<>(2);

    /** Called by the JAX-RS filter when a request arrives. */
    public void begin(IncomingRequest request) {
        this.request = request;
        this.looked = true;
    }

    /** @return the current HTTP request, or {@code null} outside one */
    public IncomingRequest request() {
        if (!looked) {
            looked = true;
            Tollgate tollgate = extension.tollgate();
            RequestView servlet = tollgate.httpRequests().current();
            if (servlet != null) {
                request = tollgate.config().incoming(servlet);
            }
        }
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

    public void record(List<RuleCheck> made) {
        checks.addAll(made);
    }

    /** @return the checks made for this request so far */
    public List<RuleCheck> checks() {
        return checks;
    }
}
