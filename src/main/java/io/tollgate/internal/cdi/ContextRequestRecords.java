package io.tollgate.internal.cdi;

import io.tollgate.internal.config.TollgateConfig;
import io.tollgate.internal.request.HttpRequests;
import io.tollgate.internal.request.RequestView;
import io.tollgate.internal.runtime.RequestRecord;
import io.tollgate.internal.runtime.RequestRecords;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * Finds the {@link RequestRecord} of the HTTP request served on this thread. Where the application sees the
 * Servlet API, the record is the request attribute the JAX-RS filter set (a JAX-RS property is one), or one made
 * from the servlet request on first use (a servlet or JSF page calling a limited bean): no CDI bean is made per
 * request. Without the Servlet API, the filter also hands the record over in the CDI request context.
 */
final class ContextRequestRecords implements RequestRecords {

    private final TollgateConfig config;
    private final HttpRequests servlet;
    private final BeanManager beans;
    /** The client proxy of {@link RequestState}, looked up on first use; only without the Servlet API. */
    private volatile RequestState state;

    ContextRequestRecords(TollgateConfig config, HttpRequests servlet, BeanManager beans) {
        this.config = config;
        this.servlet = servlet;
        this.beans = beans;
    }

    @Override
    public void handOver(RequestRecord record) {
        if (!servlet.hasAttributes()) {
            state().begin(record);
        }
    }

    @Override
    public RequestRecord current() {
        if (!requestContextActive()) {
            return null; // no HTTP request on this thread (a timer, a message): nothing to ask the servlet layer
        }
        if (!servlet.hasAttributes()) {
            return state().record();
        }
        if (servlet.attribute(RequestRecord.ATTRIBUTE) instanceof RequestRecord record) {
            return record;
        }
        RequestView view = servlet.current();
        if (view == null) {
            return null;
        }
        RequestRecord record = new RequestRecord(config.incoming(view));
        servlet.setAttribute(RequestRecord.ATTRIBUTE, record);
        return record;
    }

    @Override
    public RequestRecord existing() {
        if (!requestContextActive()) {
            return null;
        }
        if (!servlet.hasAttributes()) {
            return state().record();
        }
        return servlet.attribute(RequestRecord.ATTRIBUTE) instanceof RequestRecord record ? record : null;
    }

    private boolean requestContextActive() {
        try {
            return beans.getContext(RequestScoped.class).isActive();
        } catch (ContextNotActiveException e) {
            return false;
        }
    }

    private RequestState state() {
        RequestState found = state;
        if (found == null) {
            Bean<?> bean = beans.resolve(beans.getBeans(RequestState.class));
            found = (RequestState) beans.getReference(bean, RequestState.class, beans.createCreationalContext(bean));
            state = found;
        }
        return found;
    }
}
