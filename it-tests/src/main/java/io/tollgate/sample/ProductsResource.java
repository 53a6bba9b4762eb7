package io.tollgate.sample;

import io.tollgate.RateLimited;
import io.tollgate.sample.api.ProductsApi;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;

/** Implements the generated {@link ProductsApi}; the rule {@code products} is named on the method. */
@Path("products")
@RequestScoped
public class ProductsResource implements ProductsApi {

    @Override
    @RateLimited("products")
    public String getProduct(String id) {
        return "product " + id;
    }
}
