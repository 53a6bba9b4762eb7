package io.tollgate.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Path;

/** A CDI resource whose limited method is inherited from {@link CatalogBase}. */
@Path("catalog")
@RequestScoped
public class CatalogResource extends CatalogBase {
}
