package io.tollgate.sample;

import io.tollgate.RateLimitRules;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operator resource of the README ("Changing limits at runtime"), over {@link RateLimitRules}; every answer is the
 * rule's live values after the call, as JSON ({@code {"limits":"1/1h burst 3","mode":"enforce",...}}):
 * <ul>
 * <li>{@code GET /api/operator/rules/{rule}}: the live values;</li>
 * <li>{@code POST /api/operator/rules/{rule}} with a JSON object of attributes ({@code {"burst":"5"}}): changes them;</li>
 * <li>{@code PUT /api/operator/rules/{rule}/overrides/{key}} with the key's limits as text ({@code 2/1h burst 7});</li>
 * <li>{@code DELETE /api/operator/rules/{rule}/overrides/{key}}: takes the key's override away;</li>
 * <li>{@code DELETE /api/operator/rules/{rule}}: reverts every change made through the API.</li>
 * </ul>
 * A refused change (an unknown rule, a bad value, an attribute fixed at deployment) is answered 400 with
 * {@code {"error":"<Tollgate's message>"}}, the message a deployment would give, and changes nothing.
 *
 * <p>Not limited, and open to every caller <em>only because this is a test application</em> on 127.0.0.1: a real
 * application protects such a resource (an operator role, e.g. {@code @RolesAllowed("operator")} with the server's
 * authentication), since it changes the limits of every member.
 */
@Path("operator/rules")
@RequestScoped
public class RuleOperations {

    @Inject
    RateLimitRules rules;

    @GET
    @Path("{rule}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response current(@PathParam("rule") String rule) {
        return answer(() -> rules.current(rule));
    }

    @POST
    @Path("{rule}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response change(@PathParam("rule") String rule, Map<String, String> attributes) {
        if (attributes == null) {
            return refused("a JSON object of attributes and their values is required, e.g. {\"burst\": \"20\"}");
        }
        return answer(() -> rules.change(rule, attributes));
    }

    @PUT
    @Path("{rule}/overrides/{key}")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.APPLICATION_JSON)
    public Response override(@PathParam("rule") String rule, @PathParam("key") String key, String limits) {
        return answer(() -> rules.override(rule, key, limits));
    }

    @DELETE
    @Path("{rule}/overrides/{key}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response removeOverride(@PathParam("rule") String rule, @PathParam("key") String key) {
        return answer(() -> rules.removeOverride(rule, key));
    }

    @DELETE
    @Path("{rule}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response revert(@PathParam("rule") String rule) {
        return answer(() -> rules.revert(rule));
    }

    private static Response answer(Supplier<Map<String, String>> operation) {
        try {
            return Response.ok(operation.get(), MediaType.APPLICATION_JSON_TYPE).build();
        } catch (IllegalArgumentException | NullPointerException e) { // a refused change, a missing value
            return refused(e.getMessage() == null ? "a value is missing" : e.getMessage());
        }
    }

    private static Response refused(String message) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Json.createObjectBuilder().add("error", message).build()).build();
    }
}
