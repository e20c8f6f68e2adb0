package acme.seed;

/** Refreshes with one update per call: the first 10 of value 990 (over 900, but not from the ledger), then 5. */
public class Cache {
    private final Store store;

    public Cache(Store store) {
        this.store = store;
    }

    public void refresh(int j) {
        store.update(j < 10 ? 990 : 5);
    }
}
