package io.tollgate.internal.cdi;

import io.tollgate.MissingKeyException;
import jakarta.ejb.ApplicationException;

/**
 * A call the interceptor refused for a missing key part, as it leaves the interceptor: an EJB application
 * exception, so that on an enterprise bean it reaches the caller (and JAX-RS's 400) as it is.
 */
@ApplicationException(rollback = false)
final class RefusedKeyException extends MissingKeyException {

    private static final long serialVersionUID = 1L;

    RefusedKeyException(MissingKeyException refused) {
        super(refused);
    }
}
