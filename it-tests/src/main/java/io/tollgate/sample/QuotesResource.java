package io.tollgate.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/quote}: not annotated; the limit (rule {@code quotes}, per client address) is on {@link QuoteService}. */
@Path("quote")
@RequestScoped
public class QuotesResource {

    @Inject
    QuoteService quotes;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String quote() {
        return quotes.quote();
    }
}
