import { Route } from 'react-router';
import { Admin, CustomRoutes, defaultTheme, Resource, type RaThemeOptions } from 'react-admin';
import PeopleIcon from '@mui/icons-material/PeopleOutlined';
import HistoryIcon from '@mui/icons-material/History';
import { authProvider } from './lib/auth-provider';
import { dataProvider } from './lib/data-provider';
import { i18nProvider } from './lib/i18n';
import { LoginPage } from './auth/LoginPage';
import { SetupPage } from './auth/SetupPage';
import { Dashboard } from './Dashboard';
import { AdminLayout } from './Layout';
import { StaffList } from './staff/StaffList';
import { StaffCreate } from './staff/StaffCreate';
import { StaffEdit } from './staff/StaffEdit';
import { AuditList } from './audit/AuditList';
import { OrderList } from './orders/OrderList';
import { OrderShow } from './orders/OrderShow';
import ReceiptIcon from '@mui/icons-material/ReceiptLongOutlined';
import InventoryIcon from '@mui/icons-material/Inventory2Outlined';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturnOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import HourglassIcon from '@mui/icons-material/HourglassEmptyOutlined';
import { StockList } from './stock/StockList';
import { OfferShow } from './stock/OfferShow';
import { ReturnList, ReturnShow } from './returns/Returns';
import { CustomerList, CustomerShow } from './customers/Customers';
import { PreorderList, WaitingList } from './waiting/WaitingList';
import { ReviewList, ReviewShow } from './reviews/Reviews';
import RateReviewIcon from '@mui/icons-material/RateReviewOutlined';
import RssFeedIcon from '@mui/icons-material/RssFeedOutlined';
import { FeedsPage } from './feeds/Feeds';
import { ProductCreate, ProductEdit, ProductList } from './catalogue/Products';
import { SectionCreate, SectionEdit, SectionList } from './catalogue/Sections';
import CheckroomIcon from '@mui/icons-material/CheckroomOutlined';
import AccountTreeIcon from '@mui/icons-material/AccountTreeOutlined';
import { ExchangePage } from './exchange/Exchange';
import SyncAltIcon from '@mui/icons-material/SyncAltOutlined';
import { PromoCreate, PromoEdit, PromoList } from './promotions/Promos';
import { CertificateCreate, CertificateList, CertificateShow } from './promotions/Certificates';
import { LoyaltyPage } from './promotions/Loyalty';
import LocalOfferIcon from '@mui/icons-material/LocalOfferOutlined';
import CardGiftcardIcon from '@mui/icons-material/CardGiftcardOutlined';
import LoyaltyIcon from '@mui/icons-material/LoyaltyOutlined';
import ArticleIcon from '@mui/icons-material/ArticleOutlined';
import TitleIcon from '@mui/icons-material/TitleOutlined';
import AltRouteIcon from '@mui/icons-material/AltRouteOutlined';
import {
  ArticleCreate,
  ContentEdit,
  ContentList,
  PageMetaCreate,
  PageMetaEdit,
  PageMetaList,
  RedirectCreate,
  RedirectEdit,
  RedirectImportPage,
  RedirectList,
} from './content/SiteWords';
import { SiteSettingsPage } from './content/SiteSettings';
import TextFieldsIcon from '@mui/icons-material/TextFields';

// The back office (issue #29, docs/back-office.md): react-admin over the admin API. Each screen is
// a Resource; the menu shows those the role may open (authProvider.canAccess). Screens to come
// (orders, returns, stock, customers) are added here the same way.

/** MUI's `down('sm')`: below 600 px, where react-admin switches to its phone layout. */
const PHONE = '@media (max-width:599.95px)';

const theme: RaThemeOptions = {
  ...defaultTheme,
  // The shop's colours: near-black on warm white (react-admin's app bar takes the secondary colour).
  palette: { primary: { main: '#2b2b2b' }, secondary: { main: '#2f2d2b' }, background: { default: '#f6f5f3' } },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    ...defaultTheme.components,
    // A list wider than the window (many columns, a phone) scrolls inside its card, not the page.
    // (The flex items around it may shrink below their content's width: minWidth 0.)
    // react-admin's layout is at least as wide as its content (minWidth: fit-content): no, the window's width.
    RaLayout: { styleOverrides: { root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } } },
    RaList: {
      styleOverrides: { root: { '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } } },
    },
    // On a phone react-admin puts a list's actions (the filter button, «Экспорт», a create button
    // that became a floating one) in a full-width strip of their own above the filters: an empty
    // white band of 64 px on most lists. Here the actions sit at the right of the filters instead,
    // and a toolbar with nothing in the flow (no actions, only the floating button) takes no room.
    RaListToolbar: {
      styleOverrides: {
        root: {
          [PHONE]: {
            flexDirection: 'row',
            flexWrap: 'nowrap',
            alignItems: 'flex-start',
            '& > form': { flex: '1 1 0', width: 'auto', minWidth: 0 },
            '& > .MuiToolbar-root': { flex: '0 0 auto', alignSelf: 'flex-start', marginTop: '12px' },
            '& > .MuiToolbar-root:empty': { display: 'none' },
          },
        },
      },
    },
    RaTopToolbar: { styleOverrides: { root: { [PHONE]: { minHeight: 0 } } } },
    // The same for a record's page (an offer's ledger on a phone): the card may not grow past the window.
    RaShow: {
      styleOverrides: {
        root: { '& .RaShow-main': { minWidth: 0 }, '& .RaShow-card': { minWidth: 0, overflowX: 'auto' } },
      },
    },
    RaEdit: {
      styleOverrides: {
        root: { '& .RaEdit-main': { minWidth: 0 }, '& .RaEdit-card': { minWidth: 0, overflowX: 'auto' } },
      },
    },
  },
};

export function App() {
  return (
    <Admin
      // No basename here: the router around it has /admin (admin/main.tsx), so its paths are the app's own.
      title="Витрина"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      dashboard={Dashboard}
      layout={AdminLayout}
      theme={theme}
      // No calls to react-admin's servers (and the CSP would refuse them).
      disableTelemetry
    >
      <Resource
        name="orders"
        list={OrderList}
        show={OrderShow}
        icon={ReceiptIcon}
        options={{ label: 'Заказы' }}
        recordRepresentation="id"
      />
      <Resource
        name="staff"
        list={StaffList}
        create={StaffCreate}
        edit={StaffEdit}
        icon={PeopleIcon}
        options={{ label: 'Сотрудники' }}
        recordRepresentation="email"
      />
      <Resource
        name="returns"
        list={ReturnList}
        show={ReturnShow}
        icon={AssignmentReturnIcon}
        options={{ label: 'Возвраты' }}
      />
      <Resource name="offers" list={StockList} show={OfferShow} icon={InventoryIcon} options={{ label: 'Склад' }} />
      <Resource name="waiting-list" list={WaitingList} icon={HourglassIcon} options={{ label: 'Листы ожидания' }} />
      <Resource name="preorders" list={PreorderList} icon={HourglassIcon} options={{ label: 'Предзаказы' }} />
      <Resource
        name="customers"
        list={CustomerList}
        show={CustomerShow}
        icon={PersonIcon}
        options={{ label: 'Покупатели' }}
      />
      <Resource
        name="reviews"
        list={ReviewList}
        show={ReviewShow}
        icon={RateReviewIcon}
        options={{ label: 'Отзывы' }}
      />
      <Resource
        name="products"
        list={ProductList}
        create={ProductCreate}
        edit={ProductEdit}
        icon={CheckroomIcon}
        options={{ label: 'Товары' }}
        recordRepresentation="name"
      />
      <Resource
        name="sections"
        list={SectionList}
        create={SectionCreate}
        edit={SectionEdit}
        icon={AccountTreeIcon}
        options={{ label: 'Разделы' }}
        recordRepresentation="name"
      />
      <Resource
        name="content"
        list={ContentList}
        create={ArticleCreate}
        edit={ContentEdit}
        icon={ArticleIcon}
        options={{ label: 'Страницы и блог' }}
        recordRepresentation="title"
      />
      <Resource
        name="page-meta"
        list={PageMetaList}
        create={PageMetaCreate}
        edit={PageMetaEdit}
        icon={TitleIcon}
        options={{ label: 'Метаданные страниц' }}
        recordRepresentation="path"
      />
      <Resource
        name="redirects"
        list={RedirectList}
        create={RedirectCreate}
        edit={RedirectEdit}
        icon={AltRouteIcon}
        options={{ label: 'Перенаправления' }}
        recordRepresentation="from"
      />
      <Resource name="redirect-import" list={RedirectImportPage} options={{ label: 'Импорт перенаправлений' }} />
      <Resource
        name="site-settings"
        list={SiteSettingsPage}
        icon={TextFieldsIcon}
        options={{ label: 'Тексты сайта' }}
      />
      <Resource name="feeds" list={FeedsPage} icon={RssFeedIcon} options={{ label: 'Фиды' }} />
      <Resource name="exchange" list={ExchangePage} icon={SyncAltIcon} options={{ label: 'Обмен с 1С' }} />
      <Resource
        name="promo-codes"
        list={PromoList}
        create={PromoCreate}
        edit={PromoEdit}
        icon={LocalOfferIcon}
        options={{ label: 'Промокоды' }}
        recordRepresentation="code"
      />
      <Resource
        name="certificates"
        list={CertificateList}
        show={CertificateShow}
        create={CertificateCreate}
        icon={CardGiftcardIcon}
        options={{ label: 'Сертификаты' }}
        recordRepresentation="code_formatted"
      />
      <Resource name="loyalty" list={LoyaltyPage} icon={LoyaltyIcon} options={{ label: 'Лояльность' }} />
      <Resource name="audit" list={AuditList} icon={HistoryIcon} options={{ label: 'Журнал действий' }} />
      <CustomRoutes noLayout>
        <Route path="/setup" element={<SetupPage />} />
      </CustomRoutes>
    </Admin>
  );
}
