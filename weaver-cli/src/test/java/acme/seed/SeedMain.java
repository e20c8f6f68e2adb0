package acme.seed;

/**
 * The seed's experiment (001, SmartMonitor): 200 updates, 103 posted by the ledger (24 of them over 900) and 97 by
 * the cache (10 of them over 900). The question is "the updates over 900 that the ledger posts": 24.
 */
public final class SeedMain {
    private SeedMain() {
    }

    public static void main(String[] args) {
        Store store = new Store();
        Ledger ledger = new Ledger(store);
        Cache cache = new Cache(store);
        for (int i = 0; i < 103; i++) {
            ledger.post(i);
        }
        for (int j = 0; j < 97; j++) {
            cache.refresh(j);
        }
        System.out.println("sum " + store.sum());
    }
}
