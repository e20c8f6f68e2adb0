package acme.seed;

/** The store of the seed's experiment: 200 updates reach it, 103 from Ledger.post and 97 from Cache.refresh. */
public class Store {
    private long sum;

    public void update(int value) {
        sum += value;
    }

    public long sum() {
        return sum;
    }
}
