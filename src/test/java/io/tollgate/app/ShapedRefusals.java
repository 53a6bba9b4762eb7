package io.tollgate.app;

import io.tollgate.InvalidCostException;
import io.tollgate.MissingKeyException;
import io.tollgate.RateLimitExceededException;
import io.tollgate.RateLimitRefusedException;
import io.tollgate.jaxrs.RefusalBody;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.client.Entity;
import java.util.concurrent.atomic.AtomicInteger;

/** The application's bodies of Tollgate's refusals, as the test sets them: Tollgate's, its own, or a failure. */
@ApplicationScoped
public class ShapedRefusals implements RefusalBody {

    /** How the bean answers. */
    public enum Mode { TOLLGATES, OWN, FAILING }

    private static volatile Mode mode = Mode.TOLLGATES;
    private static final AtomicInteger MADE = new AtomicInteger();

    @PostConstruct
    void made() {
        MADE.incrementAndGet();
    }

    /** @return how many instances the container has made of this bean */
    public static int instances() {
        return MADE.get();
    }

    /** Sets how the bean answers from now on. */
    public static void answer(Mode answer) {
        mode = answer;
    }

    @Override
    public Entity<?> body(RateLimitRefusedException refusal) {
        switch (mode) {
            case OWN:
                String retry = refusal instanceof RateLimitExceededException exceeded
                        ? ", retry after " + exceeded.decision().retryAfterSeconds() + " s" : "";
                String why = refusal instanceof MissingKeyException ? "missing key"
                        : refusal instanceof InvalidCostException ? "invalid cost" : "exceeded";
                return Entity.entity("refused by rule '" + refusal.rule() + "' with " + refusal.status() + " (" + why + ")" + retry,
                        "text/plain");
            case FAILING:
                throw new IllegalStateException("the application's body is broken");
            default:
                return null;
        }
    }
}
