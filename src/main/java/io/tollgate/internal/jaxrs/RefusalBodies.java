package io.tollgate.internal.jaxrs;

import io.tollgate.RateLimitRefusedException;
import io.tollgate.internal.http.ProblemBodies;
import io.tollgate.internal.limiter.ThrottledLog;
import io.tollgate.jaxrs.RefusalBody;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sets the body of a refusal: the application's {@link RefusalBody} bean's, if it has one and that gives one, else
 * Tollgate's problem body. Only the body and its media type: the status and the headers are set apart. The bean is
 * looked up once, on the first refusal (the filter and each mapper hold one of these for their application).
 */
final class RefusalBodies {

    private static final Logger LOG = Logger.getLogger(RefusalBodies.class.getName());
    private static final ThrottledLog FAILED = ThrottledLog.of(LOG, Level.WARNING);

    /** The application's bean, once looked up. */
    private volatile Lookup lookup;

    /**
     * @param beans  the application's bean, or {@code null} if it has none (or several)
     * @param shared that bean's client proxy when it has a normal scope, asked on every refusal; {@code null} for a
     *               {@code @Dependent} bean, made (and destroyed) per refusal
     */
    private record Lookup(Instance<RefusalBody> beans, RefusalBody shared) {
    }

    /**
     * @param refusal the refusal, made only when the application has a bean to ask
     * @param problem Tollgate's problem body
     */
    void write(Response.ResponseBuilder response, Supplier<? extends RateLimitRefusedException> refusal, String problem) {
        Lookup found = lookup();
        Entity<?> body = found.beans() == null ? null : ask(found, refusal.get());
        if (body == null) {
            response.type(ProblemBodies.MEDIA_TYPE).entity(problem);
            return;
        }
        response.entity(body.getEntity()).type(body.getMediaType()).language(body.getLanguage());
        if (body.getEncoding() != null) {
            response.encoding(body.getEncoding());
        }
    }

    private Lookup lookup() {
        Lookup found = lookup;
        if (found == null) {
            Instance<RefusalBody> beans = CDI.current().select(RefusalBody.class);
            if (!beans.isResolvable()) {
                found = new Lookup(null, null);
            } else {
                boolean dependent = beans.getHandle().getBean().getScope() == Dependent.class;
                found = new Lookup(beans, dependent ? null : beans.get());
            }
            lookup = found;
        }
        return found;
    }

    /** @return the bean's body, or {@code null} if it gives none or fails; a {@code @Dependent} bean made for it is destroyed */
    private static Entity<?> ask(Lookup found, RateLimitRefusedException refusal) {
        Instance.Handle<RefusalBody> made = found.shared() == null ? found.beans().getHandle() : null;
        try {
            return (made == null ? found.shared() : made.get()).body(refusal);
        } catch (RuntimeException e) {
            if (FAILED.due()) {
                FAILED.write("The application's RefusalBody failed for a refusal by rule '" + refusal.rule()
                        + "'; Tollgate answered with its default body", e);
            }
            return null;
        } finally {
            if (made != null) {
                made.destroy();
            }
        }
    }
}
