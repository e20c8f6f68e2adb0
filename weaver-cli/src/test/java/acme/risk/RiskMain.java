package acme.risk;

/**
 * The planted program about how calls end (AskRunTest), on thread {@code main}: with {@code Vault.mode} 1, the teller
 * serves (15 takes: 10 return, 3 IllegalArgumentException, 2 IllegalStateException); with mode 2, it checks (5 takes:
 * 2 return, 2 IllegalArgumentException, 1 IllegalStateException). 20 takes in all, 12 returning 355 in all, 8 thrown.
 */
public final class RiskMain {
    private RiskMain() {
    }

    public static void main(String[] args) {
        Teller teller = new Teller(new Vault(7));
        Vault.mode = 1;
        teller.serve();
        Vault.mode = 2;
        teller.check();
        System.out.println("served " + teller.served + " refused " + teller.refused);
    }
}
