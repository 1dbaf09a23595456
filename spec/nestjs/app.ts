/**
 * The spec app of the NestJS module: a billing module whose singleton tool provider injects a singleton service, a
 * string-token configuration, an abstract class bound to a plain value and a request-scoped service into its tool
 * methods; and a reports module whose tool provider is itself request-scoped, named through forFeature.
 */
import { Inject as NestInject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Action, Inject, InjectionToken, Param, RequiresApproval, ToolContext, ToolError, ToolGroup } from '../../lib';
import { AgentToolkitModule, nestToken } from '../../lib/nestjs';

export interface BillingConfig {
  currency: string;
}
export const BILLING_CONFIG = 'BILLING_CONFIG';
/** Not a Nest provider: tools receive it from the per-call ToolContext. */
export const TENANT = new InjectionToken<string>('Tenant');

/** A class no Nest module provides: tools receive it from the per-call ToolContext. */
export class Locale {
  constructor(readonly tag: string) {}
}

/** An abstract class used as an interface token; Nest provides a plain object for it. */
export abstract class Clock {
  abstract now(): number;
}

let requests = 0;

@Injectable({ scope: Scope.REQUEST })
export class RequestInfo {
  readonly serial = ++requests;
  constructor(@NestInject(REQUEST) readonly request: { user?: string } | undefined) {}
}

@Injectable({ scope: Scope.TRANSIENT })
export class Scratch {
  readonly notes: string[] = [];
}

@Injectable()
export class PaymentsService {
  readonly charged: number[] = [];
  readonly refunded: string[] = [];
  charge(amount: number): string {
    this.charged.push(amount);
    return `charged ${amount}`;
  }
}

@ToolGroup('billing', { description: 'Charges and refunds.' })
@Injectable()
export class BillingTools {
  constructor(private readonly payments: PaymentsService) {}

  @Action('Charge the customer.')
  charge(@Param('amount') amount: number, @Inject(PaymentsService) payments: PaymentsService, @Inject(nestToken<BillingConfig>(BILLING_CONFIG)) config: BillingConfig): string {
    return `${payments.charge(amount)} ${config.currency}`;
  }

  @Action('Refund an order.')
  @RequiresApproval()
  refund(@Param('orderId') orderId: string): string {
    this.payments.refunded.push(orderId);
    return `refunded ${orderId}`;
  }

  @Action('Who is asking.')
  whoAmI(@Inject(RequestInfo) info: RequestInfo, @Inject(Clock) clock: Clock): string {
    return `request #${info.serial} of ${info.request?.user ?? 'nobody'} at ${clock.now()}`;
  }

  @Action('The tenant of this call.')
  tenant(@Inject(TENANT) tenant: string, @Inject(ToolContext) context: ToolContext, @Inject(Locale, { optional: true }) locale?: Locale): string {
    return `${tenant} ${context.has(PaymentsService)} ${locale?.tag ?? 'no locale'}`;
  }

  @Action('Take a note on the scratch pad of this call.')
  note(@Param('text') text: string, @Inject(Scratch) scratch: Scratch): number {
    scratch.notes.push(text);
    return scratch.notes.length;
  }

  @Action('Always fails.')
  explode(): string {
    throw new ToolError('the ledger is locked');
  }

  @Action('Fails with a bug.')
  crash(): string {
    throw new TypeError('undefined is not a function');
  }
}

@Module({
  providers: [Scratch, PaymentsService, BillingTools, { provide: 'BILLING_ALIAS', useExisting: BillingTools }, { provide: BILLING_CONFIG, useValue: { currency: 'EUR' } }, { provide: Clock, useValue: { now: () => 42 } }, RequestInfo],
  exports: [PaymentsService, RequestInfo],
})
export class BillingModule {}

/** Request-scoped through its constructor: one instance per call (or per request). */
@Injectable()
export class ReportTools {
  constructor(
    private readonly info: RequestInfo,
    private readonly scratch: Scratch,
  ) {}

  @Action('The report of this request.')
  summary(@Param('title') title: string): string {
    this.scratch.notes.push(title);
    return `${title} for request #${this.info.serial} (${this.scratch.notes.length} note)`;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
export class AuditTools {
  static created = 0;
  readonly id = ++AuditTools.created;

  @Action('Which audit instance answers.')
  audit(): number {
    return this.id;
  }
}

@Injectable({ scope: Scope.REQUEST })
export class BrokenService {
  constructor() {
    throw new Error('database unreachable');
  }
}

@Injectable()
export class OpsTools {
  @Action('Uses a service whose construction fails.')
  ping(@Inject(BrokenService) broken: BrokenService): string {
    return String(broken);
  }
}

@Module({
  imports: [BillingModule, AgentToolkitModule.forFeature([{ provider: ReportTools, prefix: 'reports_' }, AuditTools])],
  providers: [ReportTools, Scratch, AuditTools],
})
export class ReportsModule {}

@Module({ providers: [OpsTools, BrokenService] })
export class OpsModule {}
