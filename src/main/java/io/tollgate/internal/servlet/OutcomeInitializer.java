package io.tollgate.internal.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import java.util.EnumSet;
import java.util.Set;

/**
 * Adds the {@link OutcomeFilter} to every web application that has Tollgate in its {@code WEB-INF/lib}, the way
 * JAX-RS implementations add themselves (named in {@code META-INF/services}).
 */
public final class OutcomeInitializer implements ServletContainerInitializer {

    /** The filter's name in the web application. */
    public static final String FILTER_NAME = "tollgate-outcomes";

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        FilterRegistration.Dynamic filter = context.addFilter(FILTER_NAME, new OutcomeFilter());
        if (filter != null) { // null: the application declares a filter of that name itself
            filter.setAsyncSupported(true);
            filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        }
    }
}
