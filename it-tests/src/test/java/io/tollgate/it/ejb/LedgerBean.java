package io.tollgate.it.ejb;

import io.tollgate.RateLimited;
import jakarta.ejb.Stateless;

/** A stateless session bean with a rate-limited method (rule {@code ledger}: one call per hour per API key). */
@Stateless
public class LedgerBean {

    @RateLimited("ledger")
    public String balance() {
        return "balance 42";
    }
}
