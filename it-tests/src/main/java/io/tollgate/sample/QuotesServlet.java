package io.tollgate.sample;

import io.tollgate.RateLimitExceededException;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /quotes}, {@code /quotes/gold}, {@code /quotes/topics/<topic>}: a plain servlet (no JAX-RS)
 * calling the rate-limited {@link QuoteService}. A denial reaches it as {@link RateLimitExceededException},
 * which it answers itself: 429 with {@code Retry-After}.
 */
@WebServlet("/quotes/*")
public class QuotesServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String TOPICS = "/topics/";

    @Inject
    QuoteService quotes;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "/" : request.getPathInfo();
        String quote;
        try {
            if (path.equals("/")) {
                quote = quotes.quote();
            } else if (path.equals("/gold")) {
                quote = quotes.goldQuote();
            } else if (path.startsWith(TOPICS) && path.length() > TOPICS.length()) {
                quote = quotes.quoteOn(path.substring(TOPICS.length()));
            } else {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
        } catch (RateLimitExceededException e) {
            response.setStatus(429);
            response.setHeader("Retry-After", Long.toString(Math.max(1, e.decision().retryAfterSeconds())));
            response.setContentType("text/plain");
            response.getWriter().write("slow down: " + e.decision().rule());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().write(quote);
    }
}
