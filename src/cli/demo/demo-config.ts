// The demo's config: a real config file (through the real loader), with the addresses of the embedded
// simulator, the local Slack-like sink and a temporary state directory filled in through ${ENV} expansion.
import { fileURLToPath } from 'node:url';

/** The example rules shipped with the package (rules/ beside src/ and dist/). */
export const EXAMPLE_RULES_DIR = fileURLToPath(new URL('../../../rules', import.meta.url));

/** The file name the demo config is reported under in errors. */
export const DEMO_CONFIG_FILE = 'demo-config.yaml';

export const DEMO_CONFIG = `# The config \`ledger-sentinel demo\` runs with; see config.example.yaml for every key.
ledger:
  base_url: \${DEMO_LEDGER_URL}
  requests_per_second: 50
  retry: { max_attempts: 5, base_delay: 100ms, max_delay: 2s }
verification:
  base_url: \${DEMO_LEDGER_URL}
  chain_id: "295"
accounts:
  - { id: 0.0.1003, name: treasury-hot, labels: { role: treasury, staking: "true" }, priority: 10 }
  - { id: 0.0.1004, name: ops-wallet, labels: { team: ops } }
  - { id: 0.0.1005, name: payroll, labels: { team: finance } }
  - { id: 0.0.1006, name: deployer, labels: { team: contracts } }
tail:
  poll_interval: 1s
  overlap: 5s
  start: now
rules:
  paths: ["\${DEMO_RULES_DIR}/*.yaml"]
notifiers:
  console: { kind: console }
  ops-slack:
    kind: slack
    webhook_url: \${DEMO_SLACK_URL}/services/T0DEMO/B0OPS/demo-ops-token
    group_wait: 1s
    min_interval: 200ms
  security-pager:
    kind: slack
    webhook_url: \${DEMO_SLACK_URL}/services/T0DEMO/B0SEC/demo-security-token
    group_wait: 1s
    min_interval: 200ms
routes:
  - notify: [console]
state:
  dir: \${DEMO_STATE_DIR}
http: { host: 127.0.0.1, port: 0 }
log: { level: warn }
daemon: { shutdown_grace: 5s, watch_files: false, tick_interval: 5s }
self_monitoring:
  notify: [console]
  check_interval: 5s
  query_service_down_after: 30s
`;
