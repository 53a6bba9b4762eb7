package io.tollgate.sample;

import io.tollgate.RateLimitDenied;
import io.tollgate.RateLimitStoreFailed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/denials/{rule}}: what {@link DenialCounter} observed of a rule, e.g.
 * {@code {"rule":"search","denied":2,"shadowDenied":0,"storeFailures":0,"latest":{"keyHash":"…","shadow":false,"retryAfter":3600,"thread":"…"}}}
 * ({@code retryAfter} the decision's exact wait in seconds, rounded up), and after a store failure
 * {@code "latestStoreFailure":{"keyHash":"…","cause":"ERROR","allowed":true}} (the policy's answer). Not limited.
 */
@Path("denials")
@RequestScoped
public class DenialsResource {

    @Inject
    DenialCounter counter;

    @GET
    @Path("{rule}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject denials(@PathParam("rule") String rule) {
        DenialCounter.RuleDenials denials = counter.of(rule);
        JsonObjectBuilder json = Json.createObjectBuilder().add("rule", rule)
                .add("denied", denials.denied()).add("shadowDenied", denials.shadowDenied())
                .add("storeFailures", denials.storeFailures());
        RateLimitDenied latest = denials.latest();
        if (latest != null) {
            json.add("latest", Json.createObjectBuilder().add("keyHash", latest.keyHash()).add("shadow", latest.shadow())
                    .add("retryAfter", latest.decision().retryAfterSeconds()).add("thread", denials.latestThread()));
        }
        RateLimitStoreFailed failure = denials.latestStoreFailure();
        if (failure != null) {
            json.add("latestStoreFailure", Json.createObjectBuilder().add("keyHash", failure.keyHash())
                    .add("cause", failure.cause().name()).add("allowed", failure.decision().allowed()));
        }
        return json.build();
    }
}
