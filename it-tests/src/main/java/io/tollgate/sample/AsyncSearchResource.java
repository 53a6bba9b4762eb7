package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code GET /api/async-search?q=tea}: an asynchronous resource method (JAX-RS's {@code CompletionStage}), limited by
 * the rule {@code async-search}. Quarkus REST runs such a method on an event loop; the answer names the thread it ran on.
 */
@Path("async-search")
@RequestScoped
public class AsyncSearchResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("async-search")
    public CompletionStage<String> search(@QueryParam("q") String q) {
        return CompletableFuture.completedFuture("results for " + q + " on " + Thread.currentThread().getName());
    }
}
