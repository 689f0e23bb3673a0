import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { errorEnvelope, PHRASES } from '../functions/http';

export interface RateLimitFirewallProps {
  /** The API stage the web ACL protects. */
  readonly stage: Stage;
  /** Requests one source IP may send per RATE_WINDOW_SECONDS before it is blocked. */
  readonly rateLimit: number;
}

/** The rate-based rule counts each source IP over this trailing window (WAF's default, 5 minutes). */
const RATE_WINDOW_SECONDS = 300;
const RATE_RULE_NAME = 'RateLimitPerSourceIp';
/** The key of the blocked response's body in the web ACL's CustomResponseBodies. */
const THROTTLED_BODY_KEY = 'Throttled';

/**
 * A regional WAF web ACL on the stage: everything is allowed except a source IP over the rate limit,
 * which gets 429 and the error envelope (a WAF custom response takes precedence over API Gateway's).
 */
export class RateLimitFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: RateLimitFirewallProps) {
    super(scope, id);
    // Metric names are per account and region: the stack name keeps a dev and a prod stack apart.
    const metricPrefix = Stack.of(this).stackName.replace(/[^\w-]/g, '');
    // Sampled requests would keep request headers, and the headers carry API keys: off.
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `${metricPrefix}-${metricName}`,
      sampledRequestsEnabled: false,
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: `Per-source-IP rate limit of ${props.rateLimit} requests per ${RATE_WINDOW_SECONDS / 60} minutes`,
      defaultAction: { allow: {} },
      customResponseBodies: {
        [THROTTLED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: errorEnvelope(429, PHRASES.throttled) },
      },
      rules: [
        {
          name: RATE_RULE_NAME,
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: props.rateLimit,
              aggregateKeyType: 'IP',
              evaluationWindowSec: RATE_WINDOW_SECONDS,
            },
          },
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: THROTTLED_BODY_KEY } } },
          visibilityConfig: visibility(RATE_RULE_NAME),
        },
      ],
      visibilityConfig: visibility('WebAcl'),
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
