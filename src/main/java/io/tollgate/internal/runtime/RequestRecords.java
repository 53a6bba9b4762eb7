package io.tollgate.internal.runtime;

/** Where the {@link RequestRecord} of the HTTP request served on this thread is kept and found. */
public interface RequestRecords {

    /** Keeps no records: every request is without one. */
    RequestRecords NONE = new RequestRecords() {
        @Override
        public void handOver(RequestRecord record) {
        }

        @Override
        public RequestRecord current() {
            return null;
        }
    };

    /** Called by the JAX-RS filter with the record it set as the request's property. */
    void handOver(RequestRecord record);

    /** @return the record of the HTTP request on this thread, or {@code null} outside one */
    RequestRecord current();

    /** @return the record of the HTTP request on this thread if one was made already, else {@code null} */
    default RequestRecord existing() {
        return current();
    }
}
