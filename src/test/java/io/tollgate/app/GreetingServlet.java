package io.tollgate.app;

import io.tollgate.RateLimitExceededException;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A plain servlet (no JAX-RS) calling {@link GreetingService}; a denial becomes a 429 with Retry-After. */
public class GreetingServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient GreetingService greetings;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String kind = request.getParameter("kind");
        try {
            String text = "gold".equals(kind) ? greetings.greetGold("you")
                    : "path".equals(kind) ? greetings.greetPath("you") : greetings.greet("you");
            response.setContentType("text/plain");
            response.getWriter().write(text);
        } catch (RateLimitExceededException e) {
            response.setStatus(429);
            response.setHeader("Retry-After", Long.toString(Math.max(1, e.decision().retryAfterSeconds())));
        }
    }
}
