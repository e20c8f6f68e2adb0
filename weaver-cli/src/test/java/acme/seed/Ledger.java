package acme.seed;

/** Posts one update per call: the first 24 of value 950 (over 900), the rest of value 100. */
public class Ledger {
    private final Store store;

    public Ledger(Store store) {
        this.store = store;
    }

    public void post(int i) {
        store.update(i < 24 ? 950 : 100);
    }
}
