package io.tollgate.internal.cdi;

import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.RateLimitExceededException;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.BanRule;
import io.tollgate.internal.limiter.RequestGate;
import io.tollgate.internal.limiter.RuleCheck;
import io.tollgate.internal.request.CallResult;
import io.tollgate.internal.runtime.Binding;
import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the rules of a {@link RateLimited} method before it runs; throws
 * {@link RateLimitExceededException} on a denial. Runs before transactions start
 * ({@code PLATFORM_BEFORE + 100}). After the method, gives back the tokens of rules whose {@code charge-on} or
 * {@code refund-on} refunds what it did (returned, or threw).
 */
@RateLimited
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class RateLimitInterceptor {

    @Inject
    RunningTollgate extension;

    /**
     * The bean whose method is called: its class is the one that carries the annotations. {@code null} for an
     * instance the container intercepts without it being a bean (a JAX-RS resource that is not a CDI bean, which
     * the runtime creates through CDI).
     */
    @Inject
    @Intercepted
    Bean<?> intercepted;

    @AroundInvoke
    public Object limit(InvocationContext invocation) throws Exception {
        Tollgate tollgate = extension.tollgate();
        if (!tollgate.enabled()) {
            return invocation.proceed();
        }
        Method method = invocation.getMethod();
        Binding binding = tollgate.binding(intercepted != null ? intercepted.getBeanClass() : invocation.getTarget().getClass(), method);
        if (binding.isEmpty()) {
            return invocation.proceed();
        }
        RequestRecord record = tollgate.requests().current();
        if (record != null && record.takeFilterCharge(binding)) {
            return invocation.proceed();
        }
        Object[] arguments = invocation.getParameters();
        String key = binding.keyParameter() < 0 ? null : String.valueOf(arguments[binding.keyParameter()]);
        List<RuleCheck> checks;
        try {
            checks = tollgate.gate().check(binding.rules(), record != null ? record.request() : null, method, arguments, key);
        } catch (InvalidCostException e) {
            throw new RefusedCostException(e);
        } catch (MissingKeyException e) {
            throw new RefusedKeyException(e);
        }
        if (record != null) {
            record.record(checks);
        }
        RuleCheck denial = RequestGate.denial(checks);
        if (denial != null) {
            BanRule ban = denial.decision().banned() ? denial.rule().ban() : null;
            throw new RateLimitExceededException(denial.decision(), ban != null ? ban.status() : RateLimitExceededException.STATUS);
        }
        if (!RequestGate.settlesByOutcome(checks)) {
            return invocation.proceed();
        }
        Object result;
        try {
            result = invocation.proceed();
        } catch (Throwable thrown) {
            settle(tollgate, record, checks, thrown);
            throw thrown;
        }
        settle(tollgate, record, checks, null);
        return result;
    }

    /**
     * Settles the checks of a call that returned or threw {@code thrown}: at once by what the method did, or, for a
     * rule that asks for a status while an HTTP request is served, at the request's end by its response's status.
     */
    private static void settle(Tollgate tollgate, RequestRecord record, List<RuleCheck> checks, Throwable thrown) {
        List<RuleCheck> now = new ArrayList<>(checks.size());
        for (RuleCheck check : checks) {
            if (record != null && check.rule().outcomes().asksStatus()) {
                record.settleAtEnd(List.of(check), thrown);
            } else {
                now.add(check);
            }
        }
        if (!now.isEmpty()) {
            List<RuleCheck> settled = tollgate.gate().settle(now, CallResult.method(thrown));
            for (int i = 0; record != null && i < now.size(); i++) {
                record.replace(now.get(i), settled.get(i));
            }
        }
    }
}
