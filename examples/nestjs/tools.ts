/**
 * The example's two feature modules: weather tools on a singleton service, and order tools that read the request's
 * user from a request-scoped provider. Nest's `@Inject` is imported as `NestInject` beside agenttoolkit's `@Inject`.
 */
import { Inject as NestInject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Action, Inject, Param, RequiresApproval, ToolGroup } from '../../lib';
import { AgentToolkitModule } from '../../lib/nestjs';

@Injectable()
export class WeatherService {
  forecast(city: string): string {
    return city === 'Oslo' ? 'snow, -3 °C' : 'sun, 21 °C';
  }
}

@ToolGroup('weather')
@Injectable()
export class WeatherTools {
  @Action('Get the forecast for a city.')
  forecast(@Param('city', { description: 'City name, for example Oslo.' }) city: string, @Inject(WeatherService) weather: WeatherService): string {
    return `${city}: ${weather.forecast(city)}`;
  }
}

@Module({ providers: [WeatherService, WeatherTools] })
export class WeatherModule {}

/** The user of the current request: request-scoped, built from Nest's REQUEST. */
@Injectable({ scope: Scope.REQUEST })
export class CurrentUser {
  constructor(@NestInject(REQUEST) private readonly request: { user?: string }) {}
  get name(): string {
    return this.request.user ?? 'anonymous';
  }
}

@Injectable()
export class OrderStore {
  private readonly orders: Record<string, string[]> = { ada: ['o-1', 'o-2'] };
  list(user: string): string[] {
    return this.orders[user] ?? [];
  }
  cancel(orderId: string): void {
    for (const list of Object.values(this.orders)) {
      const index = list.indexOf(orderId);
      if (index >= 0) list.splice(index, 1);
    }
  }
}

@ToolGroup('orders')
@Injectable()
export class OrderTools {
  constructor(private readonly store: OrderStore) {}

  @Action("List the current user's orders.")
  myOrders(@Inject(CurrentUser) user: CurrentUser): string[] {
    return this.store.list(user.name);
  }

  @Action('Cancel an order.')
  @RequiresApproval()
  cancelOrder(@Param('orderId') orderId: string): string {
    this.store.cancel(orderId);
    return `cancelled ${orderId}`;
  }
}

@Module({ imports: [AgentToolkitModule.forFeature([{ provider: OrderTools, prefix: 'orders_' }])], providers: [OrderStore, OrderTools, CurrentUser] })
export class OrdersModule {}
