package io.tollgate.it.ejb;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.logging.Logger;

/**
 * {@code GET /api/ledger}: calls {@link LedgerBean}, not limited itself. {@code GET /api/ledger/mark?text=}
 * writes one line to the server log, so a test knows that everything logged before it is in the log.
 */
@Path("ledger")
@RequestScoped
public class LedgerResource {

    private static final Logger LOG = Logger.getLogger(LedgerResource.class.getName());

    @EJB
    LedgerBean ledger;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String balance() {
        return ledger.balance();
    }

    @GET
    @Path("mark")
    @Produces(MediaType.TEXT_PLAIN)
    public String mark(@QueryParam("text") String text) {
        LOG.info(text);
        return text;
    }
}
