package io.tollgate.sample;

import io.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A rate-limited CDI service called from a plain servlet ({@link QuotesServlet}), not from JAX-RS. Its
 * rules key and match on the servlet request exactly as they would on a JAX-RS one.
 */
@ApplicationScoped
public class QuoteService {

    /** One bucket per client address (rule {@code quotes}). */
    @RateLimited("quotes")
    public String quote() {
        return "a quote";
    }

    /** Limited only for {@code X-Tier: gold} requests (rule {@code gold-quotes}). */
    @RateLimited("gold-quotes")
    public String goldQuote() {
        return "a gold quote";
    }

    /** One bucket per servlet path (rule {@code quotes-by-topic}). */
    @RateLimited("quotes-by-topic")
    public String quoteOn(String topic) {
        return "a quote on " + topic;
    }
}
