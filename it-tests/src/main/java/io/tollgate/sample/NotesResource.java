package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET} and {@code POST /api/notes}: both carry the rule {@code notes}, whose {@code match} limits only
 * writes and whose {@code exempt} lets the internal network through; {@code GET /api/notes/mine}: the rule
 * {@code my-notes}, keyed by {@code X-Api-Key}, which refuses requests without one ({@code on-missing-key=reject}).
 */
@Path("notes")
@RequestScoped
public class NotesResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("notes")
    public String list() {
        return "notes";
    }

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("notes")
    public String add() {
        return "noted";
    }

    @GET
    @Path("mine")
    @Produces(MediaType.TEXT_PLAIN)
    @RateLimited("my-notes")
    public String mine() {
        return "my notes";
    }
}
