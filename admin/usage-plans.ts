import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import { usageKeyOf } from '../functions/domain/api-key';
import { USAGE_PLAN_NAMES, type UsagePlanName } from '../functions/routes';
import { STACK_OUTPUTS } from '../lib/deployment';

/**
 * The API Gateway side of per-credential rate limits (docs/operations.md#rate-limits-per-credential): one API
 * key per issued key, named after its key id, whose value the authorizer returns as usageIdentifierKey, and
 * the usage plan it belongs to. The credentials table records the plan too, for `list` and the local run.
 */
export class UsagePlanAdmin {
  constructor(
    private readonly client: APIGatewayClient,
    private readonly planIds: Readonly<Record<UsagePlanName, string>>,
  ) {}

  /** The stack outputs that hold the plans' ids, read with the credentials table's in one DescribeStacks. */
  static readonly OUTPUTS: readonly string[] = Object.values(STACK_OUTPUTS.usagePlans);

  /** The plans of a deployed stack, from its outputs (OUTPUTS among them). */
  static fromOutputs(outputs: Readonly<Record<string, string>>, region: string | undefined): UsagePlanAdmin {
    const planIds = Object.fromEntries(
      USAGE_PLAN_NAMES.map((name) => [name, outputs[STACK_OUTPUTS.usagePlans[name]]!]),
    ) as Record<UsagePlanName, string>;
    return new UsagePlanAdmin(new APIGatewayClient(region ? { region } : {}), planIds);
  }

  /** Creates the API key of a newly issued key and puts it on `plan`. */
  async attach(keyId: string, plan: UsagePlanName): Promise<void> {
    const created = await this.client.send(
      new CreateApiKeyCommand({
        name: apiKeyName(keyId),
        value: usageKeyOf(keyId),
        enabled: true,
        description: 'Meters one issued key (password policy service)',
      }),
    );
    await this.client.send(
      new CreateUsagePlanKeyCommand({ usagePlanId: this.planIds[plan], keyId: created.id!, keyType: 'API_KEY' }),
    );
  }

  /** Moves a key's API key to `plan` (creating it first if the key predates usage plans). */
  async move(keyId: string, plan: UsagePlanName): Promise<void> {
    const id = await this.find(keyId);
    if (id === undefined) return this.attach(keyId, plan);
    for (const [name, usagePlanId] of Object.entries(this.planIds)) {
      if (name === plan) continue;
      await ignoring('NotFoundException', () =>
        this.client.send(new DeleteUsagePlanKeyCommand({ usagePlanId, keyId: id })),
      );
    }
    await ignoring('ConflictException', () =>
      this.client.send(
        new CreateUsagePlanKeyCommand({ usagePlanId: this.planIds[plan], keyId: id, keyType: 'API_KEY' }),
      ),
    );
  }

  /** Deletes a revoked key's API key (and so its plan membership); nothing when there is none. */
  async detach(keyId: string): Promise<void> {
    const id = await this.find(keyId);
    if (id !== undefined) await this.client.send(new DeleteApiKeyCommand({ apiKey: id }));
  }

  destroy(): void {
    this.client.destroy();
  }

  private async find(keyId: string): Promise<string | undefined> {
    const found = await this.client.send(
      new GetApiKeysCommand({ nameQuery: apiKeyName(keyId), includeValues: false, limit: 500 }),
    );
    return found.items?.find((item) => item.name === apiKeyName(keyId))?.id;
  }
}

const apiKeyName = (keyId: string) => `password-policy-${keyId}`;

async function ignoring(errorName: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name !== errorName) throw error;
  }
}
