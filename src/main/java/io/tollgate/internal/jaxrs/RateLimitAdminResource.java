package io.tollgate.internal.jaxrs;

import io.tollgate.BucketStatus;
import io.tollgate.internal.config.AdminSettings;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.http.AdminBodies;
import io.tollgate.internal.http.ProblemBodies;
import io.tollgate.internal.runtime.Tollgate;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.function.Function;

/**
 * The admin resource, {@code tollgate/admin} within the application's JAX-RS path: the rules, a client's bucket
 * of a rule to inspect or reset, a rule's bans to list or lift, and its most denied keys by their hashes. The key
 * is the request's body ({@code text/plain}, UTF-8), so that it stays out of
 * URLs and access logs and needs no escaping; answers name it by its hash only. Found by the server's scan of the
 * application, like {@link RateLimitFeature}. Off ({@code tollgate.admin.enabled=false}, the default) every path
 * answers 404 as if it did not exist ({@link AdminAbsenceFilter}); on, only an authenticated caller in
 * {@code tollgate.admin.role} is answered: 401 without a caller, 403 outside the role. A {@code POST} must carry
 * {@value #REQUESTED_BY} (any value), a header no browser sends across sites without the application's consent, so
 * that a page an operator visits cannot make their browser reset a bucket or lift a ban (400 without it).
 */
@Path("tollgate/admin")
public class RateLimitAdminResource {

    /** The header every {@code POST} carries. */
    static final String REQUESTED_BY = "X-Requested-By";

    private static final String JSON = MediaType.APPLICATION_JSON;

    @Context
    SecurityContext security;

    @Context
    HttpHeaders headers;

    /** @return every rule as it runs */
    @GET
    @Path("rules")
    public Response rules() {
        return answer(tollgate -> Response.ok(AdminBodies.rules(tollgate.admin().rules()), JSON).build());
    }

    /** @return the bucket of the key (the body) of the rule, read without charging anything */
    @POST
    @Path("rules/{rule}/inspect")
    @Consumes(MediaType.WILDCARD)
    public Response inspect(@PathParam("rule") String rule, String key) {
        return post(tollgate -> bucket(tollgate.admin().inspect(rule, key == null ? "" : key)));
    }

    /** @return the bucket of the key (the body) of the rule after it was reset: full */
    @POST
    @Path("rules/{rule}/reset")
    @Consumes(MediaType.WILDCARD)
    public Response reset(@PathParam("rule") String rule, String key) {
        return post(tollgate -> bucket(tollgate.admin().reset(rule, key == null ? "" : key)));
    }

    /** @return the keys the rule bans now, by hash, with the end of each ban */
    @GET
    @Path("rules/{rule}/bans")
    public Response bans(@PathParam("rule") String rule) {
        return answer(tollgate -> Response.ok(AdminBodies.bans(tollgate.admin().bans(rule)), JSON).build());
    }

    /** @return whether the key (the body) was banned by the rule; its ban is lifted on every member */
    @POST
    @Path("rules/{rule}/lift-ban")
    @Consumes(MediaType.WILDCARD)
    public Response liftBan(@PathParam("rule") String rule, String key) {
        String given = key == null ? "" : key;
        return post(tollgate -> Response.ok(AdminBodies.lifted(rule, BucketKeys.hash(given), tollgate.admin().liftBan(rule, given)),
                JSON).build());
    }

    /** @return the keys of the rule denied most on this member lately, by their hashes, at most {@code limit} (10 unless given) */
    @GET
    @Path("rules/{rule}/top-denied")
    public Response topDenied(@PathParam("rule") String rule, @QueryParam("limit") @DefaultValue("10") String limit) {
        return answer(tollgate -> Response.ok(AdminBodies.topDenied(rule, tollgate.admin().topDenied(rule, AdminBodies.limit(limit))),
                JSON).build());
    }

    private Response post(Function<Tollgate, Response> call) {
        return answer(tollgate -> {
            String requestedBy = headers == null ? null : headers.getHeaderString(REQUESTED_BY);
            if (requestedBy == null || requestedBy.isBlank()) {
                return problem(Response.Status.BAD_REQUEST, "the Tollgate admin resource takes a POST only with an " + REQUESTED_BY
                        + " header (any value, such as your name), which a browser does not send for another site's page");
            }
            return call.apply(tollgate);
        });
    }

    private Response answer(Function<Tollgate, Response> call) {
        Tollgate tollgate = CDI.current().select(Tollgate.class).get();
        AdminSettings admin = tollgate.config().admin();
        if (!admin.enabled()) {
            throw new NotFoundException();
        }
        if (security == null || security.getUserPrincipal() == null) {
            return problem(Response.Status.UNAUTHORIZED, "the Tollgate admin resource answers authenticated callers only");
        }
        if (!security.isUserInRole(admin.role().orElseThrow())) {
            return problem(Response.Status.FORBIDDEN, "the Tollgate admin resource answers callers in its role only");
        }
        try {
            return call.apply(tollgate);
        } catch (AdminBodies.BadParameterException e) {
            return problem(Response.Status.BAD_REQUEST, e.getMessage());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return problem(Response.Status.NOT_FOUND, e.getMessage());
        } catch (IllegalStateException e) {
            return problem(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        }
    }

    private static Response bucket(BucketStatus status) {
        return Response.status(status.fromStore() ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
                .type(JSON).entity(AdminBodies.bucket(status)).build();
    }

    private static Response problem(Response.Status status, String detail) {
        return Response.status(status).type(ProblemBodies.MEDIA_TYPE)
                .entity(AdminBodies.problem(status.getStatusCode(), status.getReasonPhrase(), detail)).build();
    }
}
