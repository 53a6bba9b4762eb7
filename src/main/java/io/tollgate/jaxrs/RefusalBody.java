package io.tollgate.jaxrs;

import io.tollgate.RateLimitRefusedException;
import jakarta.ws.rs.client.Entity;

/**
 * The body of Tollgate's refusals, as the application wants it: implement it as a CDI bean (one per application,
 * {@code @ApplicationScoped}) to answer a 429 or a ban ({@link io.tollgate.RateLimitExceededException}) and a 400
 * ({@link io.tollgate.MissingKeyException}, {@link io.tollgate.InvalidCostException}) with a body of your own
 * instead of Tollgate's {@code application/problem+json}:
 *
 * <pre>{@code
 * import io.tollgate.jaxrs.RefusalBody;
 * import jakarta.ws.rs.client.Entity;
 *
 * @ApplicationScoped
 * public class ApiErrors implements RefusalBody {
 *     @Override
 *     public Entity<?> body(RateLimitRefusedException refusal) {
 *         return Entity.entity("rate limited by " + refusal.rule(), MediaType.TEXT_PLAIN_TYPE);
 *     }
 * }
 * }</pre>
 *
 * <p>The body only: Tollgate keeps the status ({@link RateLimitRefusedException#status()}) and its headers
 * ({@code Retry-After}, the rate-limit headers), which the application cannot drop. The same body answers a
 * refusal by the filter on a resource method or a path rule and one thrown by a {@code @RateLimited} CDI bean.
 * The entity is written by the application's JAX-RS message body writers for its media type. Returning
 * {@code null}, or throwing (logged as a warning, at most once per 10 s), gives Tollgate's default body. Without
 * such a bean, Tollgate answers with its default bodies.
 */
public interface RefusalBody {

    /**
     * @param refusal what Tollgate refuses: a {@link io.tollgate.RateLimitExceededException} (its
     *                {@link io.tollgate.RateLimitExceededException#decision() decision}), a
     *                {@link io.tollgate.MissingKeyException} or an {@link io.tollgate.InvalidCostException}; nothing
     *                was charged for the refused request
     * @return the body and its media type (e.g. {@code Entity.json(...)}, {@code Entity.entity(text, "text/plain")}),
     *         or {@code null} for Tollgate's default body
     */
    Entity<?> body(RateLimitRefusedException refusal);
}
