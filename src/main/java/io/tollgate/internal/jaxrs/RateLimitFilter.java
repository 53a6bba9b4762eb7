package io.tollgate.internal.jaxrs;

import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.runtime.Binding;
import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks one resource method's rules (resolved when the application started) and the path rules
 * that match the request, before the body is read. Answers 429 on a denial and 400 on a bad cost or a
 * missing key part ({@code on-missing-key=reject}), in every case having charged nothing more.
 */
final class RateLimitFilter implements ContainerRequestFilter {

    private static final Object[] NO_ARGUMENTS = {};

    private final Tollgate tollgate;
    private final Method resourceMethod;
    private final Binding binding;
    private final List<RuleConfig> methodRules;
    private final PeerAddress peerAddress;
    private final RefusalBodies bodies;
    private final FilterThreads threads;

    /**
     * @param binding     what the resource method's annotations say
     * @param methodRules the rules this filter checks for them: the binding's, or none where the interceptor
     *                    checks them (a {@code @RateLimitKey} parameter)
     * @param bodies      the bodies of its refusals
     * @param threads     where a decision that may block runs ({@link FilterThreads#CALLER} for the in-memory store)
     */
    RateLimitFilter(Tollgate tollgate, Method resourceMethod, Binding binding, List<RuleConfig> methodRules,
            PeerAddress peerAddress, RefusalBodies bodies, FilterThreads threads) {
        this.tollgate = tollgate;
        this.resourceMethod = resourceMethod;
        this.binding = binding;
        this.methodRules = methodRules;
        this.peerAddress = peerAddress;
        this.bodies = bodies;
        this.threads = threads;
    }

    @Override
    public void filter(ContainerRequestContext context) {
        IncomingRequest request = tollgate.config().incoming(new JaxrsRequestView(context, peerAddress));
        RequestRecord record = new RequestRecord(request);
        record.servedByJaxrs();
        context.setProperty(RequestRecord.ATTRIBUTE, record);
        tollgate.requests().handOver(record);
        List<RuleConfig> rules = rulesFor(request);
        if (rules.isEmpty()) {
            return;
        }
        if (threads == FilterThreads.CALLER) {
            decide(context, request, record, rules); // no decision handed over: nothing to allocate for it
        } else {
            threads.run(context, () -> decide(context, request, record, rules));
        }
    }

    private void decide(ContainerRequestContext context, IncomingRequest request, RequestRecord record, List<RuleConfig> rules) {
        List<RuleCheck> checks;
        try {
            checks = tollgate.gate().check(rules, request, resourceMethod, NO_ARGUMENTS, null);
        } catch (InvalidCostException e) {
            context.abortWith(Responses.invalidCost(e, bodies));
            return;
        } catch (MissingKeyException e) {
            context.abortWith(Responses.missingKey(e, bodies));
            return;
        }
        record.record(checks);
        record.settleAtEnd(checks, null);
        if (!methodRules.isEmpty()) {
            record.chargedByFilter(binding);
        }
        RuleCheck denial = RequestGate.denial(checks);
        if (denial != null) {
            tollgate.httpRequests().beforeTooManyRequests();
            context.abortWith(Responses.tooManyRequests(tollgate.config(), denial, checks, bodies));
        }
    }

    private List<RuleConfig> rulesFor(IncomingRequest request) {
        List<RuleConfig> pathRules = tollgate.config().pathRules();
        if (pathRules.isEmpty()) {
            return methodRules;
        }
        String path = request.view().path();
        List<RuleConfig> rules = null;
        for (RuleConfig rule : pathRules) {
            if (rule.appliesToPath(path) && !methodRules.contains(rule)) {
                if (rules == null) {
                    rules = new ArrayList<>(methodRules);
                }
                rules.add(rule);
            }
        }
        return rules == null ? methodRules : rules;
    }
}
