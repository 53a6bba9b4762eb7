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
 * Tollgate's problem body. Only the body and its media type: the status and the headers are set apart.
 */
final class RefusalBodies {

    private static final Logger LOG = Logger.getLogger(RefusalBodies.class.getName());
    private static final ThrottledLog FAILED = ThrottledLog.of(LOG, Level.WARNING);

    private final Instance<RefusalBody> beans;

    private RefusalBodies(Instance<RefusalBody> beans) {
        this.beans = beans;
    }

    /** @return the application's bodies, as the current CDI container has them */
    static RefusalBodies current() {
        return new RefusalBodies(CDI.current().select(RefusalBody.class));
    }

    /**
     * @param refusal the refusal, made only when the application has a bean to ask
     * @param problem Tollgate's problem body
     */
    void write(Response.ResponseBuilder response, Supplier<? extends RateLimitRefusedException> refusal, String problem) {
        Entity<?> body = beans.isResolvable() ? ask(refusal.get()) : null;
        if (body == null) {
            response.type(ProblemBodies.MEDIA_TYPE).entity(problem);
            return;
        }
        response.entity(body.getEntity()).type(body.getMediaType()).language(body.getLanguage());
        if (body.getEncoding() != null) {
            response.encoding(body.getEncoding());
        }
    }

    /** @return the bean's body, or {@code null} if it gives none or fails; a {@code @Dependent} bean made for it is destroyed */
    private Entity<?> ask(RateLimitRefusedException refusal) {
        Instance.Handle<RefusalBody> bean = beans.getHandle();
        try {
            return bean.get().body(refusal);
        } catch (RuntimeException e) {
            if (FAILED.due()) {
                FAILED.write("The application's RefusalBody failed for a refusal by rule '" + refusal.rule()
                        + "'; Tollgate answered with its default body", e);
            }
            return null;
        } finally {
            if (bean.getBean().getScope() == Dependent.class) {
                bean.destroy();
            }
        }
    }
}
