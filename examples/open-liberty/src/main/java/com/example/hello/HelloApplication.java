package com.example.hello;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application: every resource under {@code /api}. */
@ApplicationPath("api")
public class HelloApplication extends Application {
}
