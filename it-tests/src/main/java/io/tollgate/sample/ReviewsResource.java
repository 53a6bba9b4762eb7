package io.tollgate.sample;

import io.tollgate.sample.api.ReviewsApi;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;

/** Implements the generated {@link ReviewsApi}, whose method names the rule {@code reviews}. */
@Path("reviews")
@RequestScoped
public class ReviewsResource implements ReviewsApi {

    @Override
    public String getReview(String id) {
        return "review " + id;
    }
}
