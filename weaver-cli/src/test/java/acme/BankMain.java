package acme;

/**
 * What the planted bank does, and so every answer the question tests expect (AskRunTest):
 * <ul>
 *   <li>thread {@code main}: 3 payrolls (30 transfers from payroll(), to accounts 0..9, amounts 500..1400) and 2
 *       fees (withdraw outside transfer);</li>
 *   <li>thread {@code auditor}: 2 audits (8 transfers from audit(), to account 30, amount 2000; 2 Orders made by
 *       audit itself);</li>
 *   <li>threads {@code w1}..{@code w6}: one transfer each from Worker.run(), to account k, amount 100.</li>
 * </ul>
 * 44 transfers, 44 Orders made in transfer, 44 ledger locks taken in transfer; then RiskMain's run, on main.
 */
public final class BankMain {
    private BankMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Bank bank = new Bank();
        Thread auditor = new Thread(() -> {
            bank.audit();
            bank.audit();
        }, "auditor");
        auditor.start();
        for (int i = 0; i < 3; i++) {
            bank.payroll();
        }
        bank.fee();
        bank.fee();
        auditor.join();
        for (int k = 1; k <= 6; k++) {
            Thread w = new Thread(new Worker(bank, k), "w" + k);
            w.start();
            w.join();
        }
        System.out.println("moved " + bank.moved());
        // the program about how calls end runs in the same JVM: one run less for the tests (nothing shared)
        acme.risk.RiskMain.main(args);
    }
}
