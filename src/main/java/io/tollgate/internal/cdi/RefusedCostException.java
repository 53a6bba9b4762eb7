package io.tollgate.internal.cdi;

import io.tollgate.InvalidCostException;
import jakarta.ejb.ApplicationException;

/**
 * A cost the interceptor refused, as it leaves the interceptor: an EJB application exception, so that on an
 * enterprise bean it reaches the caller (and JAX-RS's 400) as it is, instead of being logged as the bean's
 * failure and wrapped.
 */
@ApplicationException(rollback = false)
final class RefusedCostException extends InvalidCostException {

    private static final long serialVersionUID = 1L;

    RefusedCostException(InvalidCostException refused) {
        super(refused);
    }
}
